! An HPF program whose second loop nest is read from an INCLUDE file
! (include_body.h): kaiseki spmd writes one file, with the included lines
! inlined and their guards and transfers beside them.
PROGRAM INCMAIN
  INTEGER, PARAMETER :: N = 40
  REAL A(N), B(N)
  REAL X
  INTEGER I
!HPF$ DISTRIBUTE A(BLOCK)
!HPF$ ALIGN B(I) WITH A(I)
  DO I = 1, N
    A(I) = I * 0.5
  END DO
  INCLUDE 'include_body.h'
  CALL REPORT(X)
  PRINT *, SUM(B)
END PROGRAM INCMAIN

! A unit after the INCLUDE: its header stands further down in the
! program written than in this file.
SUBROUTINE REPORT(X)
  REAL X
  PRINT *, 'X =', X
END SUBROUTINE REPORT
